-- A guest paying online at checkout (issue 31, docs/payments.md "Paying at checkout"). With the
-- business's payment_policy.pay_to_confirm, checkout does not book: it saves the checkout request
-- on the cart, opens a Stripe Checkout Session, and the cart waits for Stripe's signed webhook,
-- which books it with the saved request (or refunds the payment when the places are gone).
--   payment_state    NULL (no online payment), 'awaiting' (the guest is paying: the cart refuses
--                    changes), 'paid' (booked by the webhook), 'expired' (the session expired or
--                    failed: the cart abandoned), 'canceled' (DELETE expired the session first),
--                    'refunded' (paid, but the places were gone: refunded in full, nothing booked)
--   payment_session  the Checkout Session's id (its events name it); payment_url the hosted page
--   payment_amount_minor, payment_expires_at   what the session takes, and when it expires
--   payment_refund   Stripe's refund id of a 'refunded' cart
--   checkout_request the checkout's body as validated (the booker, terms, newsletter), booked as is
ALTER TABLE carts ADD COLUMN payment_state TEXT;
ALTER TABLE carts ADD COLUMN payment_session TEXT;
ALTER TABLE carts ADD COLUMN payment_url TEXT;
ALTER TABLE carts ADD COLUMN payment_amount_minor INTEGER;
ALTER TABLE carts ADD COLUMN payment_expires_at TEXT;
ALTER TABLE carts ADD COLUMN payment_refund TEXT;
ALTER TABLE carts ADD COLUMN checkout_request TEXT;
