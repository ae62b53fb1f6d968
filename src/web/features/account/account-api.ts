import type { DeleteAccountRequest } from '../../../common/api/account.ts';
import { accountMessages } from '../../../common/messages/account.ts';
import { apiRequest } from '../../lib/api-client.ts';

/**
 * Deletes the signed-in account with everything in it; the server also ends its sessions. The
 * confirmation word travels along so that no stray request can delete an account.
 */
export function deleteAccount(): Promise<void> {
  const body: DeleteAccountRequest = { confirm: accountMessages.deleteAccount.confirmWord };
  return apiRequest<void>('/api/account', { method: 'DELETE', body });
}
