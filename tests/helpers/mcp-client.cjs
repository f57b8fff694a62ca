// mcp-client.cjs - the official MCP TypeScript SDK's client driving a
// server over stdio, for tests/cli/t7000-mcp.t.
// Usage: node mcp-client.cjs SDK_DIR CALLS.jsonl -- COMMAND [ARG...]
// SDK_DIR holds node_modules/@modelcontextprotocol/sdk. Connects (the SDK
// does initialize and notifications/initialized), pings, lists the tools,
// then calls each {"name", "arguments"} line of CALLS.jsonl in turn; prints
// one JSON line for the handshake ({server, capabilities, tools:[names]})
// and one per call ({name, isError, text, structured}). A line
// {"method": M, "params": P} instead makes that request through the SDK's
// own call for it (resources/list, resources/read, resources/templates/list,
// prompts/list, prompts/get), which checks the answer's shape, and prints
// {method, result}. The server inherits
// this process's environment (the SDK would pass only a few variables).
'use strict';
const fs = require('fs');
const path = require('path');
const { createRequire } = require('module');

async function main() {
	const [sdkDir, callsFile, dashes, command, ...args] = process.argv.slice(2);
	if (dashes !== '--' || !command)
		throw new Error('usage: mcp-client.cjs SDK_DIR CALLS.jsonl -- COMMAND [ARG...]');
	const req = createRequire(path.join(path.resolve(sdkDir), 'package.json'));
	const { Client } = req('@modelcontextprotocol/sdk/client/index.js');
	const { StdioClientTransport } = req('@modelcontextprotocol/sdk/client/stdio.js');
	const transport = new StdioClientTransport({
		command, args, env: process.env, stderr: 'inherit',
	});
	const client = new Client({ name: 'convctl-test', version: '1.0.0' });
	await client.connect(transport);
	await client.ping();
	const { tools } = await client.listTools();
	console.log(JSON.stringify({
		server: client.getServerVersion(),
		capabilities: client.getServerCapabilities(),
		tools: tools.map((t) => t.name),
	}));
	const lines = fs.readFileSync(callsFile, 'utf8').split('\n').filter((l) => l);
	for (const line of lines) {
		const call = JSON.parse(line);
		if (call.method) {
			const by = {
				'resources/list': (p) => client.listResources(p),
				'resources/read': (p) => client.readResource(p),
				'resources/templates/list': (p) => client.listResourceTemplates(p),
				'prompts/list': (p) => client.listPrompts(p),
				'prompts/get': (p) => client.getPrompt(p),
			}[call.method];
			if (!by)
				throw new Error(`${call.method}: not a request this client makes`);
			console.log(JSON.stringify({ method: call.method, result: await by(call.params) }));
			continue;
		}
		// callTool checks structuredContent against the tool's outputSchema
		const r = await client.callTool(call);
		if (r.content.length !== 1 || r.content[0].type !== 'text')
			throw new Error(`${call.name}: content is not one text block`);
		console.log(JSON.stringify({
			name: call.name, isError: r.isError ?? false,
			text: r.content[0].text, structured: r.structuredContent ?? null,
		}));
	}
	await client.close();
}

main().catch((err) => {
	console.error(`mcp-client: ${err && err.stack ? err.stack : err}`);
	process.exit(1);
});
