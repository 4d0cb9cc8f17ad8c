import { expect } from 'chai';
import { CLIENTS, type Host } from '../../app/cli/connect/clients.js';
import { checkEndpoint } from '../../app/cli/connect/connect-command.js';

const linux: Host = { platform: 'linux', home: '/home/ada', env: {} };
const mac: Host = { platform: 'darwin', home: '/Users/ada', env: {} };
const windows: Host = { platform: 'win32', home: 'C:\\Users\\ada', env: { APPDATA: 'C:\\Users\\ada\\AppData\\Roaming' } };

describe("switchboard connect: each client's file on each OS", () => {
  it('Claude Desktop', () => {
    expect(CLIENTS['claude-desktop'].file(linux)).to.equal('/home/ada/.config/Claude/claude_desktop_config.json');
    expect(CLIENTS['claude-desktop'].file({ ...linux, env: { XDG_CONFIG_HOME: '/xdg' } })).to.equal('/xdg/Claude/claude_desktop_config.json');
    expect(CLIENTS['claude-desktop'].file(mac)).to.equal('/Users/ada/Library/Application Support/Claude/claude_desktop_config.json');
    expect(CLIENTS['claude-desktop'].file(windows)).to.equal('C:\\Users\\ada\\AppData\\Roaming\\Claude\\claude_desktop_config.json');
  });

  it('Claude Code and Cursor: in the home directory everywhere', () => {
    expect(CLIENTS['claude-code'].file(mac)).to.equal('/Users/ada/.claude.json');
    expect(CLIENTS['claude-code'].file(windows)).to.equal('C:\\Users\\ada\\.claude.json');
    expect(CLIENTS.cursor.file(linux)).to.equal('/home/ada/.cursor/mcp.json');
    expect(CLIENTS.cursor.file(windows)).to.equal('C:\\Users\\ada\\.cursor\\mcp.json');
  });

  it("VS Code: the user profile's mcp.json", () => {
    expect(CLIENTS.vscode.file(linux)).to.equal('/home/ada/.config/Code/User/mcp.json');
    expect(CLIENTS.vscode.file(mac)).to.equal('/Users/ada/Library/Application Support/Code/User/mcp.json');
    expect(CLIENTS.vscode.file(windows)).to.equal('C:\\Users\\ada\\AppData\\Roaming\\Code\\User\\mcp.json');
    expect(CLIENTS.vscode.file({ ...windows, env: {} })).to.equal('C:\\Users\\ada\\AppData\\Roaming\\Code\\User\\mcp.json');
  });

  it('an endpoint is an http(s) URL without credentials', () => {
    expect(checkEndpoint('https://sb.example/mcp').host).to.equal('sb.example');
    for (const bad of ['ftp://x/mcp', 'http://a:b@x/mcp', 'http://x/\u0007', 'relative/mcp']) expect(() => checkEndpoint(bad), bad).to.throw();
  });
});
