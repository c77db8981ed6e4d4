/**
 * Defects: a value the input policy let through that the database then refused (SQLSTATE class 22 or 23). The
 * caller is answered 4xx either way; the server also logs the defect (`defect: true`, level error) and publishes it
 * on a Node diagnostics channel (`node:diagnostics_channel`), so a test suite or a metrics exporter can count
 * defects whatever logger the server was given, a silent one included.
 */

/** Name of the diagnostics channel on which the sandbox and the BFF publish every {@link DefectReport}. */
export const DEFECT_CHANNEL = 'domainkit:defect';

/** What a defect report carries: no request body, no header, nothing secret. */
export interface DefectReport {
  /** The server that answered: `sandbox` or `bff`. */
  readonly component: 'sandbox' | 'bff';
  /** Method and path of the request (`GET /api/partner/v1/orders`), without its query. */
  readonly route: string;
  /** The SQLSTATE the database answered (`22003` numeric value out of range, `23503` foreign key…). */
  readonly sqlstate: string | undefined;
  /** The database's message (redacted by the BFF). */
  readonly message: string;
}
