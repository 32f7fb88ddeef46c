import { useT } from '../../../i18n/use-t';
import { useId } from 'react';
import { Link } from 'react-router';
import { getDisplayLocale, money } from '../../../format';
import { barHeights, type DailyTotals, dayLink, type MoneyTotals } from './money-model';

const WIDTH = 300;
const HEIGHT = 60;
const GAP = 2;

const dayFormats = new Map<string, Intl.DateTimeFormat>();
/** A UTC day ("28 Nov", "28. Nov.") in the console's language. */
function dayName(day: string): string {
  const locale = getDisplayLocale() === 'de' ? 'de-DE' : 'en-GB';
  let format = dayFormats.get(locale);
  if (!format) {
    format = new Intl.DateTimeFormat(locale, { day: 'numeric', month: 'short', timeZone: 'UTC' });
    dayFormats.set(locale, format);
  }
  return format.format(new Date(`${day}T00:00:00.000Z`));
}

/**
 * Gross per day of one mode and currency: a hand-written SVG bar chart. No chart library: 30 bars
 * need none, it adds nothing to the first load, and it sets no inline style (the console's CSP
 * allows none): the bars' geometry is SVG attributes, their colour comes from styles.css. For
 * screen readers the chart is one image with a summary; the figures of each day, with links to
 * that day's payments, are in the table under it.
 */
export function DailyChart({ group, series }: { group: Pick<MoneyTotals, 'mode' | 'currency'>; series: DailyTotals[] }) {
  const id = useId();
  const t = useT();
  const heights = barHeights(
    series.map((entry) => entry.gross),
    HEIGHT,
  );
  const slot = WIDTH / series.length;
  const best = series.reduce((top, entry) => (entry.gross > top.gross ? entry : top), series[0]);
  const busyDays = series.filter((entry) => entry.payments > 0);
  const mode = group.mode === 'live' ? 'live' : 'test';
  const span = { mode, currency: group.currency, from: dayName(series[0].day), to: dayName(series[series.length - 1].day) };
  const summary =
    best.gross > 0
      ? t('dashboard.chart.summary', { ...span, days: series.filter((entry) => entry.gross > 0).length, best: dayName(best.day), amount: money(best.gross, group.currency) })
      : t('dashboard.chart.none', span);
  return (
    <figure className="money-chart">
      <svg className="money-chart-bars" viewBox={`0 0 ${WIDTH} ${HEIGHT + 1}`} preserveAspectRatio="none" role="img" aria-labelledby={`${id}-title`} aria-describedby={`${id}-desc`}>
        <title id={`${id}-title`}>{t('dashboard.chart.title')}</title>
        <desc id={`${id}-desc`}>{summary}</desc>
        {series.map((entry, index) => (
          <rect key={entry.day} className={entry.day === best.day && best.gross > 0 ? 'bar bar-top' : 'bar'} x={index * slot + GAP / 2} y={HEIGHT - heights[index]} width={slot - GAP} height={heights[index]}>
            <title>{t('dashboard.chart.bar', { day: dayName(entry.day), gross: money(entry.gross, group.currency), paid: entry.paid })}</title>
          </rect>
        ))}
        <line className="axis" x1={0} x2={WIDTH} y1={HEIGHT + 0.5} y2={HEIGHT + 0.5} />
      </svg>
      <figcaption className="money-chart-caption">
        <span>{dayName(series[0].day)}</span>
        <span className="muted">{summary}</span>
        <span>{dayName(series[series.length - 1].day)}</span>
      </figcaption>
      {busyDays.length > 0 && (
        <details className="disclosure">
          <summary>{t('dashboard.chart.dayByDay', { days: busyDays.length })}</summary>
          <ul className="day-list">
            {busyDays.map((entry) => (
              <li key={entry.day}>
                <Link to={dayLink(group, entry.day)}>
                  {dayName(entry.day)}
                  <span className="visually-hidden">
                    {' '}
                    {t('dashboard.chart.openDay', { mode, currency: group.currency })}
                  </span>
                </Link>{' '}
                {t('dashboard.chart.day', { gross: money(entry.gross, group.currency), refunded: money(entry.refunded, group.currency), net: money(entry.net, group.currency), paid: entry.paid, failed: entry.failed })}
              </li>
            ))}
          </ul>
        </details>
      )}
    </figure>
  );
}
