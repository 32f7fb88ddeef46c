import { IsNotEmpty, IsString, Matches, MaxLength } from 'class-validator';
import { Trim } from '../../common/validation/index.js';

export class TagDto {
  tag_id: number;
  tag: string;
}

export class CreateTagDto {
  /** Tag name, unique (case-insensitive) */
  // class-validator reports the bottom-most failing check first: the type check goes last.
  @Trim()
  @Matches(/^[^<>]*$/, { message: 'tag must not contain < or >' })
  @MaxLength(100)
  @IsNotEmpty()
  @IsString()
  tag: string;
}

export class TagCreatedDto {
  success: boolean;
  message: string;
  tag_id: number;
}
