/** `npm start`: build the client if it is missing or stale, then run the server. */
import { main } from '../server/main';
import { buildClientIfStale } from './client-build';

buildClientIfStale();
await main();
