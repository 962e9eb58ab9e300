// How the card page shows `envelope_video_url`: a video file plays in the page's own player; YouTube and Vimeo links
// become their privacy-enhanced embeds (no cookies, no tracking), whose hosts the page's CSP then allows as frames;
// anything else is a plain link, so a customer's URL never becomes an iframe of an arbitrary site.

export type PageVideo =
  | { kind: 'file'; src: string }
  | { kind: 'embed'; src: string; frameHost: string }
  | { kind: 'link'; href: string };

const YOUTUBE_HOSTS = new Set(['youtube.com', 'www.youtube.com', 'm.youtube.com', 'youtu.be', 'www.youtube-nocookie.com', 'youtube-nocookie.com']);
const VIMEO_HOSTS = new Set(['vimeo.com', 'www.vimeo.com', 'player.vimeo.com']);
const YOUTUBE_ID = /^[A-Za-z0-9_-]{11}$/;

export const YOUTUBE_FRAME_HOST = 'https://www.youtube-nocookie.com';
export const VIMEO_FRAME_HOST = 'https://player.vimeo.com';

function youtubeId(url: URL): string | null {
  const parts = url.pathname.split('/').filter(Boolean);
  const id = url.hostname === 'youtu.be' ? parts[0] : parts[0] === 'watch' || parts.length === 0 ? url.searchParams.get('v') : ['embed', 'shorts', 'live', 'v'].includes(parts[0]!) ? parts[1] : null;
  return id && YOUTUBE_ID.test(id) ? id : null;
}

function vimeoId(url: URL): string | null {
  const parts = url.pathname.split('/').filter(Boolean);
  const id = url.hostname === 'player.vimeo.com' ? (parts[0] === 'video' ? parts[1] : null) : parts.find((p) => /^\d+$/.test(p));
  return id && /^\d{1,12}$/.test(id) ? id : null;
}

/** The video as the page shows it, or null when there is none. `url` is already an http(s) URL without whitespace. */
export function pageVideo(url: string | null): PageVideo | null {
  if (!url) return null;
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  const host = parsed.hostname.toLowerCase();
  if (YOUTUBE_HOSTS.has(host)) {
    const id = youtubeId(parsed);
    if (id) return { kind: 'embed', src: `${YOUTUBE_FRAME_HOST}/embed/${id}`, frameHost: YOUTUBE_FRAME_HOST };
  }
  if (VIMEO_HOSTS.has(host)) {
    const id = vimeoId(parsed);
    if (id) return { kind: 'embed', src: `${VIMEO_FRAME_HOST}/video/${id}?dnt=1`, frameHost: VIMEO_FRAME_HOST };
  }
  if (parsed.protocol === 'https:' && /\.(mp4|webm|ogg|ogv)$/i.test(parsed.pathname)) return { kind: 'file', src: url };
  return { kind: 'link', href: url };
}
