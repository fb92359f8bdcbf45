import { PLAYLIST_ROW_SIZE } from '../components/playlist-row.tsx';
import { useTranslation } from '../i18n/use-translation.ts';
import { usePagedList } from './use-paged-list.ts';

// A playlist's endless list as its view and its embed both show it: the pages, the first page's
// info, and what the list says of itself (its name, its loading and empty lines).

export function usePlaylistList(id: string) {
  const { t } = useTranslation();
  const list = usePagedList(
    'playlist',
    id,
    (count) => t('playlist.end', { count }),
    // The first page states the playlist's length: the list is that tall from the start.
    (first) => first.info?.totalItems,
  );
  const info = list.pages?.[0]?.info;
  const listProps = {
    label: info
      ? t('playlist.list.label', { title: info.title })
      : t('playlist.list.labelUntitled'),
    rowSize: PLAYLIST_ROW_SIZE,
    setSize: info?.totalItems,
    loadingText: t('playlist.loading'),
    emptyText: t('playlist.empty'),
    problemHeadingLevel: 1 as const,
  };
  return { list, info, listProps };
}
