/**
 * WHOIS/RDAP lookup of the Public API (Public API spec 4.2 `POST /api/tools/whois`), in RFC 9083 terms; the sandbox's records
 * are synthetic and deterministic (docs/spec-decisions.md).
 */
import { z } from 'zod';
import { domainNameSchema } from '../common.ts';
import { publicIsoTimeSchema, publicRequest, publicResponse } from './registry.ts';

/** `POST /api/tools/whois` body (Public API spec 4.2; the field name is the sandbox's choice, as in batch `whois_lookup`). */
export const publicWhoisRequestSchema = publicRequest(
  z.object({ domain: domainNameSchema.describe('The domain to look up, such as `coffee.io`.') }),
  'WhoisRequest',
  'The domain to look up.',
);

const rdapEntitySchema = z.object({
  name: z.string().nullable(),
  organization: z.string().nullable(),
  country: z.string().nullable().describe('ISO 3166-1 alpha-2.'),
});

/** `POST /api/tools/whois` answer: WHOIS/RDAP-shaped (RFC 9083 terms), synthetic and deterministic. */
export const publicWhoisRecordSchema = publicResponse(
  z.object({
    domain: z.string(),
    registered: z.boolean(),
    status: z
      .array(z.string())
      .describe('RDAP status values (RFC 9083 10.2.2), such as `active`, `client transfer prohibited`.'),
    registrar: z.object({ name: z.string(), iana_id: z.number().int(), url: z.string() }).nullable(),
    registrant: rdapEntitySchema.nullable(),
    dates: z
      .object({
        registered: publicIsoTimeSchema.nullable(),
        updated: publicIsoTimeSchema.nullable(),
        expires: publicIsoTimeSchema.nullable(),
      })
      .describe('RDAP events `registration`, `last changed`, `expiration`.'),
    nameservers: z.array(z.string()),
    dnssec: z.boolean(),
    source: z.literal('sandbox').describe('The record is synthetic: made by the sandbox, deterministic per domain.'),
  }),
  'WhoisRecord',
  'WHOIS/RDAP details of a domain: registrar, registrant, dates, nameservers.',
);

export type PublicWhoisRecord = z.infer<typeof publicWhoisRecordSchema>;

// ------------------------------------------------------------------------------------ as a client reads them
// The same answers as a client reads them: unknown fields kept and fields a richer or older service may omit
// optional, so an answer from the real service still parses (docs/architecture.md "Contracts").

/** `POST /api/tools/whois` (RDAP terms). */
export const publicWhoisRecordLenientSchema = z.looseObject({
  domain: z.string(),
  registered: z.boolean(),
  status: z.array(z.string()),
  registrar: z
    .looseObject({
      name: z.string(),
      iana_id: z.number().int().nullable().optional(),
      url: z.string().nullable().optional(),
    })
    .nullable(),
  registrant: z
    .looseObject({ name: z.string().nullable(), organization: z.string().nullable(), country: z.string().nullable() })
    .nullable(),
  dates: z.looseObject({
    registered: z.string().nullable(),
    updated: z.string().nullable(),
    expires: z.string().nullable(),
  }),
  nameservers: z.array(z.string()),
  dnssec: z.boolean().optional(),
});

export type PublicWhoisRecordLenient = z.infer<typeof publicWhoisRecordLenientSchema>;
