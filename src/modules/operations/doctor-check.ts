/** One line of `doctor`: what was checked, how it went, and how to fix it. Never a secret. */
export interface DoctorCheck {
  name: string;
  status: 'ok' | 'warn' | 'fail';
  message: string;
  fix?: string;
}

/** `ok    database   reachable … — fix: …`, one line per check. */
export function formatDoctorCheck(check: DoctorCheck): string {
  return `${check.status.padEnd(5)} ${check.name.padEnd(28)} ${check.message}${check.fix ? ` — fix: ${check.fix}` : ''}`;
}
