import { asc, eq, sql } from 'drizzle-orm';
import type { Executor } from '../../db/client.ts';
import { user } from '../../db/schema/auth.ts';

export type Role = 'user' | 'admin';

export interface RoleChange {
  email: string;
  role: Role;
  /** False when the user already had that role. */
  changed: boolean;
}

/**
 * Sets a user's role by email (case-insensitive, as sign-in treats it). The operator's routes
 * read the role on every request, so the change applies at once. Undefined when no user has that
 * email.
 */
export async function setRole(
  db: Executor,
  email: string,
  role: Role,
): Promise<RoleChange | undefined> {
  const match = sql`lower(${user.email}) = lower(${email.trim()})`;
  const [existing] = await db
    .select({ email: user.email, role: user.role })
    .from(user)
    .where(match);
  if (!existing) return undefined;
  if (existing.role === role) return { email: existing.email, role, changed: false };
  await db.update(user).set({ role, updatedAt: new Date() }).where(match);
  return { email: existing.email, role, changed: true };
}

export async function listAdmins(db: Executor): Promise<string[]> {
  const rows = await db
    .select({ email: user.email })
    .from(user)
    .where(eq(user.role, 'admin'))
    .orderBy(asc(user.email));
  return rows.map((row) => row.email);
}
