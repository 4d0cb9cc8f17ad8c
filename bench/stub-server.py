#!/usr/bin/env python3
"""The lightest MCP server over stdio: answers initialize, tools/list (N tools), tools/call
and ping, nothing else. For start-up benchmarks, where Node's own boot time per upstream
would hide Switchboard's share. `python3 stub-server.py [N]`."""
import json
import sys

count = int(sys.argv[1]) if len(sys.argv) > 1 else 20
tools = [{"name": f"tool_{i}", "description": f"Stub tool {i}.", "inputSchema": {"type": "object"}} for i in range(count)]
for line in sys.stdin:
    message = json.loads(line)
    if "id" not in message:
        continue
    method = message.get("method")
    if method == "initialize":
        result = {"protocolVersion": "2025-06-18", "capabilities": {"tools": {}}, "serverInfo": {"name": "stub", "version": "1"}}
    elif method == "tools/list":
        result = {"tools": tools}
    elif method == "tools/call":
        result = {"content": [{"type": "text", "text": "ok"}]}
    else:
        result = {}
    sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": result}) + "\n")
    sys.stdout.flush()
