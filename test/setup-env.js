// Every test process runs in UTC with quiet logs; e2e helpers set the rest per app instance.
process.env.TZ = 'UTC';
process.env.LOG_LEVEL = process.env.LOG_LEVEL || 'silent';
