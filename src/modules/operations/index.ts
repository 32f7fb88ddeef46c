export { OperationsModule } from './operations.module.js';
export { RECONCILE_CURSOR_OPTION, RECONCILE_PAGE, ReconciliationService, type ReconcileChange, type ReconcileOptions, type ReconcileReport } from './reconciliation.service.js';
export { ReconciliationTask, type LeasedRun } from './reconciliation.task.js';
export { DoctorService } from './doctor.service.js';
export { type RotationReport, SecretRotationService } from './secret-rotation.service.js';
export { formatDoctorCheck, type DoctorCheck } from './doctor-check.js';
export { databasePreflight } from './doctor-preflight.js';
