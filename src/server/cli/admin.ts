// `npm run admin -- grant <email>` / `revoke <email>` / `list`: who may use the admin area
// (/api/admin: categories, presets, example photos, quiz images). The user must have signed up
// first; the change applies to their open sessions at once.
import { listAdmins, setRole } from '../features/admin/roles.ts';
import { CliError, openCliContext, runCli } from './cli-context.ts';

const usage = [
  'Usage:',
  '  npm run admin -- grant <email>    give the admin role to a signed-up user',
  '  npm run admin -- revoke <email>   take it back',
  '  npm run admin -- list             list the admins',
].join('\n');

await runCli(async () => {
  const [command, email, ...rest] = process.argv.slice(2);
  const needsEmail = command === 'grant' || command === 'revoke';
  if (!(needsEmail || command === 'list') || (needsEmail && !email) || rest.length > 0) {
    throw new CliError(usage);
  }
  const context = await openCliContext();
  try {
    if (command === 'list') {
      const admins = await listAdmins(context.database.db);
      console.log(admins.length ? admins.join('\n') : 'There are no admins yet.');
      return;
    }
    const role = command === 'grant' ? 'admin' : 'user';
    const change = await setRole(context.database.db, email!, role);
    if (!change) {
      throw new CliError(
        `No user has the email ${email}. They need to sign up first, then run this again.`,
      );
    }
    if (command === 'grant') {
      console.log(
        change.changed
          ? `${change.email} is now an admin.`
          : `${change.email} is already an admin.`,
      );
    } else {
      console.log(
        change.changed
          ? `${change.email} is no longer an admin.`
          : `${change.email} was not an admin.`,
      );
    }
  } finally {
    await context.close();
  }
});
