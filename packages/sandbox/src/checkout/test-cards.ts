/**
 * The hosted lander's test cards and card-form validation. The sandbox moves no money: the card number alone
 * decides the outcome, as with a payment provider's test mode.
 *
 * | card number           | outcome   |
 * |-----------------------|-----------|
 * | `4242 4242 4242 4242` | succeeds  |
 * | `4000 0000 0000 0002` | declined  |
 *
 * Any future expiry (MM/YY), any 3–4 digit CVC and any name are accepted; the buyer's e-mail address is required.
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

/** The card form's problems, in the page's language (see `lander-strings.ts`). */
export interface CardFormMessages {
  readonly cardNumber: string;
  readonly cardNumberDigits: string;
  readonly expiry: string;
  readonly expired: string;
  readonly cvc: string;
  readonly cvcDigits: string;
  readonly name: string;
  readonly nameTooLong: string;
  /** No e-mail address given; one that is not an address. */
  readonly email: string;
  readonly emailInvalid: string;
}

/** The card form's problems in English (the lander's default language). */
export const ENGLISH_CARD_FORM: CardFormMessages = {
  cardNumber: 'Enter the card number.',
  cardNumberDigits: 'Enter the card number: 12 to 19 digits.',
  expiry: 'Enter the expiry date as MM/YY.',
  expired: 'The card has expired: use a future expiry date.',
  cvc: 'Enter the CVC.',
  cvcDigits: 'Enter the CVC: 3 or 4 digits.',
  name: 'Enter the name on the card.',
  nameTooLong: 'The name on the card is at most 100 characters.',
  email: 'Enter your email address: your receipt goes there.',
  emailInvalid: 'Enter a whole email address, like name@example.com.',
};

/** The card form, as posted (field names are the lander's stable `name` attributes); `m` words its problems. */
export function cardFormSchema(nowMs: number, m: CardFormMessages = ENGLISH_CARD_FORM) {
  const now = new Date(nowMs);
  const thisMonth = now.getUTCFullYear() * 12 + now.getUTCMonth();
  return z.object({
    card_number: z
      .string({ error: m.cardNumber })
      .transform((s) => s.replace(/[\s-]/g, ''))
      .pipe(z.string().regex(/^\d{12,19}$/, m.cardNumberDigits)),
    card_expiry: z
      .string({ error: m.expiry })
      .trim()
      .regex(/^(0?[1-9]|1[0-2])\s*\/\s*(\d{2}|\d{4})$/, m.expiry)
      .refine((s) => {
        const [month, year] = s.split('/').map((p) => Number.parseInt(p.trim(), 10)) as [number, number];
        const fullYear = year < 100 ? 2000 + year : year;
        return fullYear * 12 + (month - 1) >= thisMonth;
      }, m.expired),
    card_cvc: z
      .string({ error: m.cvc })
      .trim()
      .regex(/^\d{3,4}$/, m.cvcDigits),
    card_name: z.string({ error: m.name }).trim().min(1, m.name).max(100, m.nameTooLong),
    // The buyer's address (RFC 5321 caps a path at 256 octets, 254 for the address itself).
    email: z
      .string({ error: m.email })
      .trim()
      .min(1, m.email)
      .max(254, m.emailInvalid)
      .pipe(z.email({ error: m.emailInvalid })),
  });
}
