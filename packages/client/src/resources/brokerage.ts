/**
 * Brokerage (Partner API spec 2.6, 4.1 "Brokerage"): acquiring an unlisted domain a buyer wants. Eligibility, creation and
 * one case need scope `broker`; the case list needs scope `report` (docs/spec-decisions.md).
 */
import { PARTNER_API_OPERATIONS as OPS, brokerageCaseListParamsSchema } from '@domainkit/protocol';
import { partnerEndpoint } from '../endpoint.ts';

/** `GET /brokerage/eligibility?domain=`: ineligible when the domain runs a live site or is already in a case. */
export const brokerageEligibilityEndpoint = partnerEndpoint('brokerage.eligibility', OPS.getBrokerageEligibility);

/** `POST /brokerage`: opens a case (`tier`, `buyer_email`, `budget` in cents); answers a no-login `progress_url`. */
export const createBrokerageCaseEndpoint = partnerEndpoint('brokerage.create', OPS.createBrokerageCase);

/** `GET /brokerage/{case_id}`: status and timeline of one of the caller's own cases. */
export const retrieveBrokerageCaseEndpoint = partnerEndpoint('brokerage.retrieve', OPS.getBrokerageCase);

/** Query of `GET /brokerage`: an optional `status` filter and cursor paging (protocol's `brokerageCaseListParamsSchema`). */
export const listBrokerageCasesParamsSchema = brokerageCaseListParamsSchema;

/** `GET /brokerage` (scope `report`): the caller's cases and their outcomes. */
export const listBrokerageCasesEndpoint = partnerEndpoint('brokerage.list', OPS.listBrokerageCases);
