import http from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A local stand-in for Stripe's API, speaking its request and response formats
 * for what billing uses: `POST /v1/checkout/sessions` (form-encoded, bracketed
 * keys: `line_items[0][price_data][unit_amount]`, `metadata[user_id]`; bearer
 * secret key) answering a `checkout.session` object. Anything else is Stripe's
 * error envelope `{error: {type, message}}` with 404.
 */
export interface StripeFake {
  url: string;
  requests: { path: string; auth: string | undefined; form: Record<string, string> }[];
  sessions: Map<string, Record<string, unknown>>;
  close(): Promise<void>;
}

export async function startStripeFake(): Promise<StripeFake> {
  const requests: StripeFake['requests'] = [];
  const sessions = new Map<string, Record<string, unknown>>();
  let n = 0;
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (c) => {
      body += c;
    });
    req.on('end', () => {
      const form = Object.fromEntries(new URLSearchParams(body));
      requests.push({ path: req.url ?? '', auth: req.headers.authorization, form });
      const send = (status: number, json: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json', 'request-id': `req_${++n}` });
        res.end(JSON.stringify(json));
      };
      if (!req.headers.authorization?.startsWith('Bearer sk_'))
        return send(401, { error: { type: 'invalid_request_error', message: 'Invalid API Key provided' } });
      if (req.method === 'POST' && req.url === '/v1/checkout/sessions') {
        const id = `cs_test_${String(++n).padStart(6, '0')}`;
        const metadata = Object.fromEntries(
          Object.entries(form)
            .filter(([k]) => k.startsWith('metadata['))
            .map(([k, v]) => [k.slice(9, -1), v]),
        );
        const session = {
          id,
          object: 'checkout.session',
          amount_subtotal: Number(form['line_items[0][price_data][unit_amount]']),
          amount_total: Number(form['line_items[0][price_data][unit_amount]']),
          cancel_url: form.cancel_url,
          client_reference_id: form.client_reference_id ?? null,
          created: Math.floor(Date.now() / 1000),
          currency: form['line_items[0][price_data][currency]'],
          livemode: false,
          metadata,
          mode: form.mode,
          payment_status: 'unpaid',
          status: 'open',
          success_url: form.success_url,
          url: `https://checkout.stripe.com/c/pay/${id}`,
        };
        sessions.set(id, session);
        return send(200, session);
      }
      send(404, {
        error: { type: 'invalid_request_error', message: `Unrecognized request URL (${req.method}: ${req.url})` },
      });
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    sessions,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
