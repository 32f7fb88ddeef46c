import { englishT } from '../../i18n/english';
import type { WebhookDelivery, WebhookEndpoint } from '../../api/webhook-endpoints';
import { createBody, deliveryOutcome, draftOf, draftProblems, durationText, eventsText, localInputValue, sinceInstant, toggleType, updateBody } from './webhook-model';

const endpoint: WebhookEndpoint = {
  id: 3,
  url: 'https://crm.example.com/hook',
  events: ['payment.failed', 'payment.completed'],
  description: 'CRM',
  status: 'enabled',
  previous_secret_expires_at: null,
  created_at: '2026-11-28T10:00:00.000Z',
  updated_at: '2026-11-28T10:00:00.000Z',
};

const delivery = (patch: Partial<WebhookDelivery>): WebhookDelivery => ({
  id: 1,
  event_id: 9,
  event_type: 'payment.completed',
  status: 'succeeded',
  attempts: 1,
  last_attempt_at: '2026-11-28T10:00:00.000Z',
  status_code: 200,
  duration_ms: 40,
  response_excerpt: 'ok',
  error: null,
  created_at: '2026-11-28T10:00:00.000Z',
  ...patch,
});

describe('webhook endpoint form', () => {
  it('starts a new endpoint on every event, and an existing one on its types in the API order', () => {
    expect(draftOf()).toEqual({ url: '', allEvents: true, types: [], description: '' });
    expect(draftOf(endpoint)).toEqual({ url: endpoint.url, allEvents: false, types: ['payment.completed', 'payment.failed'], description: 'CRM' });
    expect(draftOf({ ...endpoint, events: ['*'], description: null })).toMatchObject({ allEvents: true, types: [], description: '' });
  });

  it('sends `*` for every event, or the types ticked, and leaves an empty description out', () => {
    expect(createBody({ url: ' https://a.example/h ', allEvents: true, types: ['payment.failed'], description: ' ' })).toEqual({ url: 'https://a.example/h', events: ['*'] });
    const ticked = toggleType(toggleType(draftOf(), 'subscription.canceled', true), 'payment.completed', true);
    expect(createBody({ ...ticked, allEvents: false, url: 'https://a.example/h', description: 'Shop' })).toEqual({
      url: 'https://a.example/h',
      events: ['payment.completed', 'subscription.canceled'],
      description: 'Shop',
    });
    expect(toggleType(ticked, 'payment.completed', false).types).toEqual(['subscription.canceled']);
  });

  it('asks for a URL and at least one event before sending', () => {
    expect(draftProblems({ url: ' ', allEvents: false, types: [], description: '' }, englishT)).toEqual({ url: expect.any(String), events: expect.any(String) });
    expect(draftProblems({ url: 'https://a.example', allEvents: true, types: [], description: '' }, englishT)).toEqual({});
  });

  it('patches only what changed, null for nothing, and clears a description with null', () => {
    expect(updateBody(endpoint, draftOf(endpoint))).toBeNull();
    expect(updateBody(endpoint, { ...draftOf(endpoint), url: 'https://new.example/h', description: '' })).toEqual({ url: 'https://new.example/h', description: null });
    expect(updateBody(endpoint, { ...draftOf(endpoint), allEvents: true })).toEqual({ events: ['*'] });
  });

  it('names the events in words', () => {
    expect(eventsText(['*'], englishT)).toBe('All events');
    expect(eventsText(['payment.completed', 'payment.failed'], englishT)).toBe('payment.completed, payment.failed');
  });
});

describe('webhook delivery outcome', () => {
  it('says delivered, failed, retrying or waiting, with the answer', () => {
    expect(deliveryOutcome(null, englishT)).toEqual({ tone: 'none', text: 'Nothing sent yet' });
    expect(deliveryOutcome(delivery({}), englishT)).toEqual({ tone: 'ok', text: 'Delivered (HTTP 200)' });
    expect(deliveryOutcome(delivery({ status: 'failed', status_code: null, error: 'refused: 10.0.0.1 is private' }), englishT)).toEqual({ tone: 'problem', text: 'Failed (no answer)' });
    expect(deliveryOutcome(delivery({ status: 'pending', attempts: 2, status_code: 500 }), englishT)).toEqual({ tone: 'waiting', text: 'Retrying after 2 attempts (HTTP 500)' });
    expect(deliveryOutcome(delivery({ status: 'pending', attempts: 0, status_code: null, last_attempt_at: null }), englishT)).toEqual({ tone: 'waiting', text: 'Waiting to be sent' });
  });

  it('writes durations short', () => {
    expect(durationText(null, englishT)).toBe('—');
    expect(durationText(340, englishT)).toBe('340 ms');
    expect(durationText(2449, englishT)).toBe('2.4 s');
  });
});

describe('send events since', () => {
  const now = new Date(2026, 10, 28, 12, 0);

  it('reads the local date and time as an instant', () => {
    const answer = sinceInstant('2026-11-27T09:30', englishT, now);
    expect(answer).toEqual({ iso: new Date(2026, 10, 27, 9, 30).toISOString() });
    expect(localInputValue(new Date(2026, 10, 27, 9, 30))).toBe('2026-11-27T09:30');
  });

  it('refuses what is not a date and time, and a time still to come', () => {
    expect(sinceInstant('', englishT, now)).toEqual({ error: 'Enter a date and a time.' });
    expect(sinceInstant('2026-11-27', englishT, now)).toEqual({ error: 'Enter a date and a time.' });
    expect(sinceInstant('2026-13-45T10:00', englishT, now)).toEqual({ error: 'Enter a date and a time.' });
    expect(sinceInstant('2026-11-28T12:01', englishT, now)).toMatchObject({ error: expect.stringContaining('in the past') });
  });
});
