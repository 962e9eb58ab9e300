// SHA-256 as lower-case hex: how API keys and confirmation tokens are stored (never the secret itself).
export async function sha256Hex(text: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text));
  return Buffer.from(digest).toString('hex');
}
