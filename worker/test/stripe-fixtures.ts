/**
 * Stripe's own example objects (stripe/openapi fixtures3.json, MIT, snapshot of 2026-08-21; see
 * /work/shared/stripe/README.md) for the resources the Stripe stand-in answers with, written out
 * as literals typed with the installed SDK's types: a field the SDK does not know, or one it
 * renamed, fails to compile (npx tsc). Generated once from the fixture file; the stand-in
 * (stripe-standin.ts) copies them and sets what each answer is about.
 */
import type Stripe from "stripe";

export const CHECKOUT_SESSION: Stripe.Checkout.Session = {
  // new in the SDK's API version (2026-10-28), after the fixture's snapshot
  "allowed_payment_method_types": null,
  "after_expiration": {
    "recovery": {
      "allow_promotion_codes": true,
      "enabled": true,
      "expires_at": null,
      "url": null
    }
  },
  "allow_promotion_codes": null,
  "amount_subtotal": null,
  "amount_total": null,
  "automatic_tax": {
    "enabled": false,
    "liability": {
      "type": "account"
    },
    "status": null,
    "provider": null
  },
  "billing_address_collection": null,
  "cancel_url": "https://example.com/cancel",
  "client_reference_id": null,
  "client_secret": null,
  "consent": {
    "promotions": null,
    "terms_of_service": null
  },
  "consent_collection": {
    "payment_method_reuse_agreement": {
      "position": "hidden"
    },
    "promotions": null,
    "terms_of_service": null
  },
  "created": 1234567890,
  "currency": null,
  "custom_fields": [],
  "custom_text": {
    "after_submit": {
      "message": "message"
    },
    "shipping_address": {
      "message": "message"
    },
    "submit": {
      "message": "message"
    },
    "terms_of_service_acceptance": {
      "message": "message"
    }
  },
  "customer": null,
  "customer_creation": null,
  "customer_details": {
    "address": {
      "city": null,
      "country": null,
      "line1": null,
      "line2": null,
      "postal_code": null,
      "state": null
    },
    "email": "example@example.com",
    "name": null,
    "phone": null,
    "tax_exempt": "none",
    "tax_ids": null,
    "business_name": null,
    "individual_name": null
  },
  "customer_email": null,
  "expires_at": 1234567890,
  "id": "cs_test_a1YS1URlnyQCN5fUUduORoQ7Pw41PJqDWkIVQCpJPqkfIhd6tVY8XB1OLY",
  "invoice": null,
  "invoice_creation": {
    "enabled": true,
    "invoice_data": {
      "account_tax_ids": null,
      "custom_fields": null,
      "description": null,
      "footer": null,
      "issuer": {
        "type": "account"
      },
      "metadata": null,
      "rendering_options": {
        "amount_tax_display": null,
        "template": null
      }
    }
  },
  "livemode": false,
  "locale": null,
  "metadata": {},
  "mode": "payment",
  "object": "checkout.session",
  "payment_intent": "pi_1PgafyB7WZ01zgkWSjxsAJo3",
  "payment_link": null,
  "payment_method_collection": null,
  "payment_method_configuration_details": {
    "id": "obj_123",
    "parent": null
  },
  "payment_method_options": {},
  "payment_method_types": [
    "card"
  ],
  "payment_status": "unpaid",
  "phone_number_collection": {
    "enabled": false
  },
  "recovered_from": null,
  "saved_payment_method_options": {
    "allow_redisplay_filters": null,
    "payment_method_remove": null,
    "payment_method_save": null
  },
  "setup_intent": null,
  "shipping_address_collection": {
    "allowed_countries": [
      "SC"
    ]
  },
  "shipping_cost": {
    "amount_subtotal": 1555417355,
    "amount_tax": 1424534716,
    "amount_total": 1117121693,
    "shipping_rate": null
  },
  "shipping_options": [],
  "status": "open",
  "submit_type": null,
  "subscription": null,
  "success_url": "https://example.com/success",
  "total_details": {
    "amount_discount": 406046392,
    "amount_shipping": null,
    "amount_tax": 1424534716
  },
  "ui_mode": null,
  "url": "https://checkout.stripe.com/pay/c/cs_test_a1YS1URlnyQCN5fUUduORoQ7Pw41PJqDWkIVQCpJPqkfIhd6tVY8XB1OLY",
  "adaptive_pricing": {
    "enabled": true
  },
  "discounts": null,
  "collected_information": {
    "shipping_details": {
      "address": {
        "city": null,
        "country": null,
        "line1": null,
        "line2": null,
        "postal_code": null,
        "state": null
      },
      "name": "name"
    },
    "business_name": null,
    "individual_name": null
  },
  "permissions": {
    "update_shipping_details": null
  },
  "wallet_options": {},
  "origin_context": null,
  // the fixture's fx_rate is a string; SDK 23 types it as Decimal: not ours to answer, so left out
  "currency_conversion": null,
  "customer_account": null,
  "integration_identifier": null,
  "managed_payments": {
    "enabled": true
  }
};

export const REFUND: Stripe.Refund = {
  "amount": 100,
  "balance_transaction": null,
  "charge": "ch_1PgafuB7WZ01zgkWXYmPNZs8",
  "created": 1234567890,
  "currency": "usd",
  "destination_details": {
    "card": {
      "type": "reversal"
    },
    "type": "card"
  },
  "id": "re_1Pgc72B7WZ01zgkWqPvrRrPE",
  "metadata": {},
  "object": "refund",
  "payment_intent": null,
  "reason": null,
  "receipt_number": null,
  "source_transfer_reversal": null,
  "status": "succeeded",
  "transfer_reversal": null,
  "customer": null,
  "customer_account": null,
  "payment_method": null
};
