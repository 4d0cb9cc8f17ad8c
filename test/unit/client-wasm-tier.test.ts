import { expect } from 'chai';
import { CLIENT_WASM_FLAGS, clientWasmFlags } from '../../app/cli/client-wasm-tier.js';

describe('client commands: WebAssembly on the baseline tier', () => {
  it('a client command runs wasm (llhttp, under fetch) on Liftoff only, not waiting at exit for an optimizing compile', () => {
    expect(CLIENT_WASM_FLAGS).to.equal('--liftoff-only');
    expect(clientWasmFlags({})).to.equal('--liftoff-only');
  });

  it('SWITCHBOARD_V8_FLAGS, even empty, is the whole choice: nothing is added', () => {
    expect(clientWasmFlags({ SWITCHBOARD_V8_FLAGS: '' })).to.equal('');
    expect(clientWasmFlags({ SWITCHBOARD_V8_FLAGS: '--semi-space-growth-factor=2' })).to.equal('');
  });
});
