import { IsNotEmpty, IsString, Matches, MaxLength } from 'class-validator';
import { Trim } from '../../common/validation/index.js';

export class TagDto {
  tag_id: number;
  tag: string;
}

export class CreateTagDto {
  /** Tag name, unique (case-insensitive) */
  @Trim()
  @IsString()
  @IsNotEmpty()
  @MaxLength(100)
  @Matches(/^[^<>]*$/, { message: 'tag must not contain < or >' })
  tag: string;
}

export class TagCreatedDto {
  success: boolean;
  message: string;
  tag_id: number;
}
