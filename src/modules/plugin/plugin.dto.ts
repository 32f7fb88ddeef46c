import { IsNotEmpty, IsString, Matches, MaxLength } from 'class-validator';

export class PluginInfoDto {
  name: string;
  /** Version of the running code (CHECKOUT_VERSION) */
  version: string;
  author: string;
  license: string;
}

export class PluginStatusDto {
  active: boolean;
  /** Version recorded by the last completed upgrade */
  version: string;
}

export class PluginUpdateDto {
  /** Target release, e.g. `1.5.3`; at most the running code's version */
  @IsString()
  @MaxLength(20)
  @Matches(/^\d{1,3}\.\d{1,3}\.\d{1,3}$/, { message: 'version must look like 1.5.3' })
  version: string;
}

/** Body of `/plugin/install` and `/plugin/activate` */
export class PluginSlugDto {
  /** Must be `page_builder`; any other slug is refused with 400 `checkout_plugin_not_allowed` */
  @MaxLength(100)
  @IsNotEmpty()
  @IsString()
  slug: string;
}

export class PluginActionResultDto {
  success: boolean;
  message: string;
  slug: string;
  installed: boolean;
  active: boolean;
}
