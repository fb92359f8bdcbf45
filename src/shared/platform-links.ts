// Links out to the platform: the explorer plays nothing itself, so every video opens there
// (in a new tab in the app; as a line of a URL list in an export).

const PLATFORM = 'https://www.youtube.com';

export function watchUrl(videoId: string, playlistId?: string, index?: number): string {
  const query = new URLSearchParams({ v: videoId });
  if (playlistId) query.set('list', playlistId);
  if (index !== undefined) query.set('index', String(index));
  return `${PLATFORM}/watch?${query}`;
}

export function platformPlaylistUrl(playlistId: string): string {
  return `${PLATFORM}/playlist?${new URLSearchParams({ list: playlistId })}`;
}

export function platformChannelUrl(channelId: string): string {
  return `${PLATFORM}/channel/${encodeURIComponent(channelId)}`;
}

/** The catalogue's own URL when it is an https link, else one built from the ID. */
export function safeExternalUrl(url: string, fallback: string): string {
  try {
    return new URL(url).protocol === 'https:' ? url : fallback;
  } catch {
    return fallback;
  }
}
