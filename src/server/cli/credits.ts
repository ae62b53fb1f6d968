// Operator commands for credits, through the same ledger as the app (one row per change, never
// below zero):
//
//   npm run credits -- adjust <email> <delta> <note...>   e.g. adjust a@b.co 50 "goodwill"
//   npm run credits -- show <email>                       balance and last 20 changes
//
// With DATABASE_URL set, a running app's open pages hear of the change (subscription.updated).
import { createOperatorCredits } from '../features/billing/credits.ts';
import { createMemoryEventBus, createPostgresEventBus } from '../features/events/event-bus.ts';
import { AppError } from '../http/app-error.ts';
import { CliError, openCliContext, runCli } from './cli-context.ts';

const usage =
  'usage: npm run credits -- adjust <email> <delta> <note...>\n       npm run credits -- show <email>';

await runCli(async () => {
  const [command, email, ...rest] = process.argv.slice(2);
  if (!command || !email || !['adjust', 'show'].includes(command)) throw new CliError(usage);
  const delta = Number(rest[0]);
  const note = rest.slice(1).join(' ').trim();
  if (command === 'adjust' && (!Number.isInteger(delta) || delta === 0 || !note))
    throw new CliError(
      `${usage}\n<delta> is a non-zero whole number; a note saying why is required.`,
    );

  const context = await openCliContext();
  const { database } = context;
  const events = database.notifications
    ? createPostgresEventBus(database.notifications)
    : createMemoryEventBus();
  try {
    const credits = createOperatorCredits({ db: database.db, events });
    const userId = await credits.userIdByEmail(email);
    if (!userId) throw new CliError(`No account with the email ${email}.`);

    if (command === 'adjust') {
      const result = await credits.adjust(userId, delta, note).catch((error: unknown) => {
        if (error instanceof AppError) throw new CliError(error.message);
        throw error;
      });
      console.log(
        `${delta > 0 ? 'Added' : 'Removed'} ${Math.abs(delta)} credits for ${email}: balance ${result.balance}.`,
      );
      return;
    }

    const { subscription: row, entries } = await credits.statement(userId, 20);
    console.log(
      `${email}: ${row?.credits ?? 0} credits, ${row?.monthlyFreeTrainingsLeft ?? 1} free training(s) left, ` +
        `${row?.active ? `active ${row.tier}` : 'no active plan'}`,
    );
    for (const entry of entries) {
      const sign = entry.delta > 0 ? '+' : '';
      console.log(
        `  ${entry.createdAt.toISOString()}  ${`${sign}${entry.delta}`.padStart(6)}  → ${String(entry.balanceAfter).padStart(6)}  ${entry.reason}  ${entry.reference}${entry.note ? `  (${entry.note})` : ''}`,
      );
    }
  } finally {
    await events.close();
    await context.close();
  }
});
