/**
 * Webhook registration (Partner API spec 2.4 `PUT /api/partner/webhooks`): when `webhook.publicUrl` is set, the
 * router registers it with its secret at start, and again at each catch-up until one registration succeeded.
 */
import type { Logger } from 'pino';
import type { MarketplaceApi } from '../upstream/marketplace-api.ts';
import type { WebhookOptions } from './options.ts';

/** The registration state of one router. */
export class WebhookRegistration {
  readonly #client: Pick<MarketplaceApi, 'webhooks'>;
  readonly #webhook: WebhookOptions | undefined;
  readonly #logger: Logger;
  #registered = false;

  constructor(client: Pick<MarketplaceApi, 'webhooks'>, webhook: WebhookOptions | undefined, logger: Logger) {
    this.#client = client;
    this.#webhook = webhook;
    this.#logger = logger;
  }

  /** True when there is a URL to register and no registration has succeeded yet. */
  get pending(): boolean {
    return this.#webhook?.publicUrl !== undefined && !this.#registered;
  }

  /**
   * Registers the URL (never waiting for an upstream token).
   * @returns false when no `publicUrl` is configured.
   * @throws {MarketplaceError} when the marketplace refuses or cannot be reached.
   */
  async register(): Promise<boolean> {
    const webhook = this.#webhook;
    if (webhook?.publicUrl === undefined) return false;
    const answer = await this.#client.webhooks.register(
      { url: webhook.publicUrl, secret: webhook.secret },
      { context: { maxWaitMs: 0 } },
    );
    this.#registered = true;
    this.#logger.info({ url: answer.url, active: answer.active }, 'webhook endpoint registered');
    return true;
  }
}
