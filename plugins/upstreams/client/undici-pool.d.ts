// undici's Pool module on its own (quick-post.ts): the package declares types for its index only.
declare module 'undici/lib/dispatcher/pool.js' {
  import type { Pool } from 'undici';
  const PoolClass: typeof Pool;
  export default PoolClass;
}
