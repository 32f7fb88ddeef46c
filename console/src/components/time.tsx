import { utcWhen, when, type WhenOptions } from '../format';

/**
 * A time of the API as the viewer reads it: their own time zone on screen, the UTC time on hover
 * (`title`), the instant itself for machines (`dateTime`). "—" when there is none.
 */
export function Time({ iso, seconds }: { iso: string | null | undefined; seconds?: boolean }) {
  if (!iso) return <>—</>;
  const options: WhenOptions = seconds ? { seconds } : {};
  return (
    <time dateTime={iso} title={utcWhen(iso)}>
      {when(iso, options)}
    </time>
  );
}
