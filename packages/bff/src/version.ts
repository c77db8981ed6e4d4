/** This package's version. */
export const BFF_VERSION = '0.1.0';
