import { useCallback, useState } from 'react';
import { generationMessages } from '../../../common/messages/generation.ts';
import { notify } from '../../components/ui/toast.ts';
import type { Generation } from './generation-api.ts';

const text = generationMessages.detail;

/**
 * Downloads one generated image: fetches its signed download URL (same origin, so the page can
 * tell whether it worked), hands the bytes to the browser as a file and says how it went.
 */
export function useDownloadImage(): {
  download: (generation: Pick<Generation, 'id' | 'downloadUrl'>) => Promise<void>;
  downloading: boolean;
} {
  const [downloading, setDownloading] = useState(false);

  const download = useCallback(async (generation: Pick<Generation, 'id' | 'downloadUrl'>) => {
    if (!generation.downloadUrl) {
      notify.error(text.downloadFailed);
      return;
    }
    setDownloading(true);
    try {
      const response = await fetch(generation.downloadUrl, { credentials: 'same-origin' });
      if (!response.ok) throw new Error(`Download answered ${response.status}`);
      const blob = await response.blob();
      const url = URL.createObjectURL(blob);
      const link = document.createElement('a');
      link.href = url;
      link.download = fileNameOf(response, generation.id);
      document.body.append(link);
      link.click();
      link.remove();
      // Revoked a moment later: some browsers read the URL after click() returns.
      setTimeout(() => URL.revokeObjectURL(url), 10_000);
      notify.success(text.downloaded);
    } catch (error) {
      console.warn('Image download failed', error);
      notify.error(text.downloadFailed);
    } finally {
      setDownloading(false);
    }
  }, []);

  return { download, downloading };
}

function fileNameOf(response: Response, id: string): string {
  const disposition = response.headers.get('content-disposition') ?? '';
  const match = /filename="?([^";]+)"?/i.exec(disposition);
  return match?.[1] ?? `likeness-${id.slice(0, 8)}.jpg`;
}
