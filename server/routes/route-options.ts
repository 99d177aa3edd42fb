/** Options app.ts hands to route plugins that need them. */
export type RateLimitedRouteOptions = {
  /** Per-IP limit for the endpoints people can hammer: token, captcha, SMS. */
  rateLimit: { max: number; timeWindow: number };
};
