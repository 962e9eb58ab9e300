// Free TCP ports for servers that need a port number up front (lib/free-ports.ts: below the ephemeral range).
export { freePort } from '../../lib/free-ports.ts';
