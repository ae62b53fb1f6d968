export * from './auth.ts';
export * from './accounts.ts';
