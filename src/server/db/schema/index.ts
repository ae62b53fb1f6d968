export * from './auth.ts';
export * from './accounts.ts';
export * from './rate-limits.ts';
export * from './billing.ts';
export * from './catalog.ts';
export * from './studio.ts';
export * from './generation.ts';
export * from './tryon.ts';
