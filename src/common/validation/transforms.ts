import { Transform } from 'class-transformer';

/**
 * Form-encoded bodies carry every value as a string; these transforms accept the string forms
 * of booleans and integers and leave anything else for the validators to refuse.
 */
export function ToBoolean(): PropertyDecorator {
  return Transform(({ obj, key }: { obj: Record<string, unknown>; key: string }) => {
    const value = obj[key];
    if (value === 'true' || value === '1' || value === 1) return true;
    if (value === 'false' || value === '0' || value === 0) return false;
    return value;
  });
}

export function ToInteger(): PropertyDecorator {
  return Transform(({ obj, key }: { obj: Record<string, unknown>; key: string }) => {
    const value = obj[key];
    if (typeof value === 'string' && /^-?\d{1,15}$/.test(value.trim())) return Number(value.trim());
    return value;
  });
}

export function Trim(): PropertyDecorator {
  return Transform(({ value }: { value: unknown }) => (typeof value === 'string' ? value.trim() : value));
}
