import { Controller, Delete, Get, Post, Req, Res, UseGuards } from '@nestjs/common';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { Response } from 'express';
import { Public } from '../../auth/gates';
import { McpServersService } from '../servers/mcp-servers.service';
import { createKbMcpServer } from './kb-mcp.server';
import { McpAuthGuard } from './mcp-auth.guard';
import { McpRequest } from './mcp-caller';
import { McpToolRunner } from './mcp-tool-runner';

/**
 * /mcp/kb: JSON-RPC over streamable HTTP, stateless (a server and transport per POST, which costs
 * a few objects). The KB guard stands aside (@Public); McpAuthGuard authenticates instead.
 */
@Controller('mcp/kb')
@Public()
export class McpController {
  constructor(
    private readonly servers: McpServersService,
    private readonly runner: McpToolRunner,
  ) {}

  @Post()
  @UseGuards(McpAuthGuard)
  async handle(@Req() req: McpRequest, @Res() res: Response): Promise<void> {
    const server = createKbMcpServer(req.mcpCaller!, this.servers, this.runner);
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
    res.on('close', () => {
      void transport.close();
      void server.close();
    });
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  }

  /** A stateless server has no stream to resume and no session to end. */
  @Get()
  stream(@Res() res: Response): void {
    notAllowed(res);
  }

  @Delete()
  end(@Res() res: Response): void {
    notAllowed(res);
  }
}

function notAllowed(res: Response): void {
  res.status(405).setHeader('Allow', 'POST').json({ jsonrpc: '2.0', error: { code: -32000, message: 'Method not allowed.' }, id: null });
}
