import { useEffect, useState } from 'react';
import { useSearchParams } from 'react-router';

/**
 * Whether Google sent the visitor back here with `?error=<code>` (a sign-in that did not work
 * out). Read once; the parameter is then taken out of the address, so a reload or a shared link
 * does not show the message again.
 */
export function useReturnedWithError(): boolean {
  const [searchParams, setSearchParams] = useSearchParams();
  const [returnedWithError] = useState(() => searchParams.has('error'));

  useEffect(() => {
    if (!searchParams.has('error')) return;
    setSearchParams(
      (params) => {
        params.delete('error');
        return params;
      },
      { replace: true },
    );
  }, [searchParams, setSearchParams]);

  return returnedWithError;
}
