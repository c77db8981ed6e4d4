/** The partner's Next.js config: nothing special for the BFF. */
export default {};
