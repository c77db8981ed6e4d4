/**
 * Brokerage (Partner API spec 2.6, 4.1 "Brokerage"): acquiring an unlisted domain a buyer wants. Eligibility, creation and
 * one case need scope `broker`; the case list needs scope `report` (docs/spec-decisions.md).
 */
import {
  brokerageCaseListSchema,
  brokerageCaseParamsSchema,
  brokerageCaseSchema,
  brokerageEligibilitySchema,
  createBrokerageCaseRequestSchema,
  domainParamsSchema,
  pageParamsSchema,
} from '@domainkit/protocol';
import { PARTNER_API_PREFIX, defineEndpoint } from '../endpoint.ts';

/** `GET /brokerage/eligibility?domain=`: ineligible when the domain runs a live site or is already in a case. */
export const brokerageEligibilityEndpoint = defineEndpoint({
  name: 'brokerage.eligibility',
  method: 'GET',
  path: `${PARTNER_API_PREFIX}/brokerage/eligibility`,
  input: domainParamsSchema,
  response: brokerageEligibilitySchema,
  rateClass: 'read',
});

/** `POST /brokerage`: opens a case (`tier`, `buyer_email`, `budget` in cents); answers a no-login `progress_url`. */
export const createBrokerageCaseEndpoint = defineEndpoint({
  name: 'brokerage.create',
  method: 'POST',
  path: `${PARTNER_API_PREFIX}/brokerage`,
  input: createBrokerageCaseRequestSchema,
  response: brokerageCaseSchema,
  rateClass: 'manage',
});

/** `GET /brokerage/{case_id}`: status and timeline of one of the caller's own cases. */
export const retrieveBrokerageCaseEndpoint = defineEndpoint({
  name: 'brokerage.retrieve',
  method: 'GET',
  path: `${PARTNER_API_PREFIX}/brokerage/{case_id}`,
  input: brokerageCaseParamsSchema,
  response: brokerageCaseSchema,
  rateClass: 'read',
});

/** Query of `GET /brokerage`: cursor paging (protocol's `pageParamsSchema`). */
export const listBrokerageCasesParamsSchema = pageParamsSchema;

/** `GET /brokerage` (scope `report`): the caller's cases and their outcomes. */
export const listBrokerageCasesEndpoint = defineEndpoint({
  name: 'brokerage.list',
  method: 'GET',
  path: `${PARTNER_API_PREFIX}/brokerage`,
  input: listBrokerageCasesParamsSchema,
  response: brokerageCaseListSchema,
  rateClass: 'reporting',
});
