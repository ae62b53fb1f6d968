import { quiz } from '../../common/product/quiz.ts';

/**
 * Where to go after signing in: the protected page someone was sent away from, or the quiz
 * results of a visitor who claimed the offer. Kept in session storage (per tab, gone when the
 * tab closes), under the key the specification names.
 */
const storageKey = quiz.sessionKeys.redirectAfterAuth;

export function rememberPostLoginRedirect(path: string): void {
  if (!isSafeRedirect(path)) return;
  try {
    sessionStorage.setItem(storageKey, path);
  } catch {
    // Storage can be unavailable (private modes, quotas); the user then lands on the default.
  }
}

export function readPostLoginRedirect(): string | null {
  try {
    const path = sessionStorage.getItem(storageKey);
    return path && isSafeRedirect(path) ? path : null;
  } catch {
    return null;
  }
}

export function clearPostLoginRedirect(): void {
  try {
    sessionStorage.removeItem(storageKey);
  } catch {
    // See rememberPostLoginRedirect.
  }
}

/** Reads and clears in one go, for the moment sign-in succeeds. */
export function takePostLoginRedirect(): string | null {
  const path = readPostLoginRedirect();
  clearPostLoginRedirect();
  return path;
}

/** Only paths of this site: "//evil.example" or "https://..." would make an open redirect. */
export function isSafeRedirect(path: string): boolean {
  return path.startsWith('/') && !path.startsWith('//') && !path.startsWith('/\\');
}
