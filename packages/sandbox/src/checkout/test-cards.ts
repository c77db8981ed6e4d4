/**
 * The hosted lander's test cards and card-form validation. The sandbox moves no money: the card number alone
 * decides the outcome, as with a payment provider's test mode.
 *
 * | card number           | outcome   |
 * |-----------------------|-----------|
 * | `4242 4242 4242 4242` | succeeds  |
 * | `4000 0000 0000 0002` | declined  |
 *
 * Any future expiry (MM/YY), any 3–4 digit CVC and any name are accepted.
 */
import { z } from 'zod';

/** The documented test cards. */
export const TEST_CARDS = {
  succeeds: '4242424242424242',
  declined: '4000000000000002',
} as const;

/** A test card's outcome; `unknown` for any other number. */
export type ChargeOutcome = 'succeeded' | 'declined' | 'unknown';

/** Charges a test card: the number alone decides. */
export function chargeTestCard(cardNumber: string): ChargeOutcome {
  if (cardNumber === TEST_CARDS.succeeds) return 'succeeded';
  if (cardNumber === TEST_CARDS.declined) return 'declined';
  return 'unknown';
}

/** Groups digits by four for display: `4242 4242 4242 4242`. */
export function formatCardNumber(digits: string): string {
  return digits.replace(/(\d{4})(?=\d)/g, '$1 ');
}

/** The card form, as posted (field names are the lander's stable `name` attributes). */
export function cardFormSchema(nowMs: number) {
  const now = new Date(nowMs);
  const thisMonth = now.getUTCFullYear() * 12 + now.getUTCMonth();
  return z.object({
    card_number: z
      .string({ error: 'Enter the card number.' })
      .transform((s) => s.replace(/[\s-]/g, ''))
      .pipe(z.string().regex(/^\d{12,19}$/, 'Enter the card number: 12 to 19 digits.')),
    card_expiry: z
      .string({ error: 'Enter the expiry date as MM/YY.' })
      .trim()
      .regex(/^(0?[1-9]|1[0-2])\s*\/\s*(\d{2}|\d{4})$/, 'Enter the expiry date as MM/YY.')
      .refine((s) => {
        const [month, year] = s.split('/').map((p) => Number.parseInt(p.trim(), 10)) as [number, number];
        const fullYear = year < 100 ? 2000 + year : year;
        return fullYear * 12 + (month - 1) >= thisMonth;
      }, 'The card has expired: use a future expiry date.'),
    card_cvc: z
      .string({ error: 'Enter the CVC.' })
      .trim()
      .regex(/^\d{3,4}$/, 'Enter the CVC: 3 or 4 digits.'),
    card_name: z
      .string({ error: 'Enter the name on the card.' })
      .trim()
      .min(1, 'Enter the name on the card.')
      .max(100, 'The name on the card is at most 100 characters.'),
  });
}
