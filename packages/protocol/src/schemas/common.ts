/**
 * Shared field schemas: domain names, money in minor units, currency codes, timestamps (docs/architecture.md "Contracts").
 */
import { z } from 'zod';
import { boundedTimestampSchema, urlProblem } from './input-policy.ts';

const LABEL = '[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?';
const DOMAIN_RE = new RegExp(`^(?=.{1,253}$)(?:${LABEL}\\.)+[a-z](?:[a-z0-9-]{0,61}[a-z0-9])?$`);

/**
 * A fully qualified domain name in ASCII (IDNs in their `xn--` form), case-folded to lowercase, such as
 * `coffeehouse.com`. Labels are 1–63 letters, digits or inner hyphens; the whole name at most 253 characters
 * (RFC 1035 2.3.4, RFC 5890).
 */
export const domainNameSchema = z
  .string()
  .trim()
  .toLowerCase()
  .regex(
    DOMAIN_RE,
    'must be a domain name such as "example.com" (letters, digits and inner hyphens, labels of at most 63 characters)',
  );

/** An amount in minor currency units (cents), a non-negative integer. */
export const centsSchema = z.number().int('must be an integer amount in minor units (cents)').nonnegative();

/** An ISO 4217 three-letter currency code, such as `USD`. */
export const currencySchema = z.string().regex(/^[A-Z]{3}$/, 'must be a three-letter ISO 4217 code such as "USD"');

/** An ISO 8601 timestamp string with an offset, in the years 0001–9999 (the input policy, input-policy.ts). */
export const timestampSchema = boundedTimestampSchema;

/** An absolute http(s) URL whose host is a valid DNS name or IP literal (the input policy, input-policy.ts). */
/**
 * A language tag (BCP 47, RFC 5646), as a page's `lang` attribute carries it: `ar`, `fr-FR`, `zh-Hant-TW`. At most 35
 * characters (RFC 5646 section 4.4.1's minimum a tag must be kept to); the syntax is checked loosely (letters and
 * digits in subtags of 1–8 joined by `-`), the meaning not at all: a tag nobody knows falls back to the default.
 */
export const languageTagSchema = z
  .string()
  .max(35)
  .regex(/^[A-Za-z]{2,8}(-[A-Za-z0-9]{1,8})*$/, 'must be a language tag (BCP 47) such as "ar" or "fr-FR"');

export const httpUrlSchema = z
  .url({ protocol: /^https?$/, error: 'must be an absolute http(s) URL' })
  .superRefine((value, ctx) => {
    const problem = urlProblem(value);
    if (problem !== undefined) ctx.addIssue({ code: 'custom', message: problem });
  });
