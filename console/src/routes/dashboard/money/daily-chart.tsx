import { useId } from 'react';
import { Link } from 'react-router';
import { money } from '../../../format';
import { barHeights, type DailyTotals, dayLink, type MoneyTotals } from './money-model';

const WIDTH = 300;
const HEIGHT = 60;
const GAP = 2;

const dayFormat = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', timeZone: 'UTC' });
const dayName = (day: string) => dayFormat.format(new Date(`${day}T00:00:00.000Z`));

/**
 * Gross per day of one mode and currency: a hand-written SVG bar chart. No chart library: 30 bars
 * need none, it adds nothing to the first load, and it sets no inline style (the console's CSP
 * allows none): the bars' geometry is SVG attributes, their colour comes from styles.css. For
 * screen readers the chart is one image with a summary; the figures of each day, with links to
 * that day's payments, are in the table under it.
 */
export function DailyChart({ group, series }: { group: Pick<MoneyTotals, 'mode' | 'currency'>; series: DailyTotals[] }) {
  const id = useId();
  const heights = barHeights(
    series.map((entry) => entry.gross),
    HEIGHT,
  );
  const slot = WIDTH / series.length;
  const best = series.reduce((top, entry) => (entry.gross > top.gross ? entry : top), series[0]);
  const busyDays = series.filter((entry) => entry.payments > 0);
  const modeText = group.mode === 'live' ? 'live' : 'test';
  const summary =
    best.gross > 0
      ? `Gross ${modeText} ${group.currency} per day from ${dayName(series[0].day)} to ${dayName(series[series.length - 1].day)}: payments on ${series.filter((entry) => entry.gross > 0).length} days, the most on ${dayName(best.day)} (${money(best.gross, group.currency)}).`
      : `No ${modeText} ${group.currency} money received from ${dayName(series[0].day)} to ${dayName(series[series.length - 1].day)}.`;
  return (
    <figure className="money-chart">
      <svg className="money-chart-bars" viewBox={`0 0 ${WIDTH} ${HEIGHT + 1}`} preserveAspectRatio="none" role="img" aria-labelledby={`${id}-title`} aria-describedby={`${id}-desc`}>
        <title id={`${id}-title`}>Gross per day</title>
        <desc id={`${id}-desc`}>{summary}</desc>
        {series.map((entry, index) => (
          <rect key={entry.day} className={entry.day === best.day && best.gross > 0 ? 'bar bar-top' : 'bar'} x={index * slot + GAP / 2} y={HEIGHT - heights[index]} width={slot - GAP} height={heights[index]}>
            <title>{`${dayName(entry.day)}: ${money(entry.gross, group.currency)} gross, ${entry.paid} paid`}</title>
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
          <summary>Day by day ({busyDays.length} {busyDays.length === 1 ? 'day' : 'days'} with payments)</summary>
          <ul className="day-list">
            {busyDays.map((entry) => (
              <li key={entry.day}>
                <Link to={dayLink(group, entry.day)}>
                  {dayName(entry.day)}
                  <span className="visually-hidden">
                    {' '}
                    ({modeText} {group.currency}): open its payments
                  </span>
                </Link>{' '}
                {money(entry.gross, group.currency)} gross, {money(entry.refunded, group.currency)} refunded, {money(entry.net, group.currency)} net · {entry.paid} paid
                {entry.failed > 0 ? `, ${entry.failed} failed` : ''}
              </li>
            ))}
          </ul>
        </details>
      )}
    </figure>
  );
}
