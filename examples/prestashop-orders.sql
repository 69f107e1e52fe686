SELECT o.reference, o.payment, o.module, o.total_paid_tax_incl, cu.iso_code AS currency_iso_code,
  a.company, a.firstname, a.lastname, a.address1, a.address2, a.postcode, a.city, co.iso_code AS country_iso_code,
  a.phone, a.phone_mobile, c.email, oc.weight
FROM ps_orders o
JOIN ps_address a ON a.id_address = o.id_address_delivery
JOIN ps_country co ON co.id_country = a.id_country
JOIN ps_customer c ON c.id_customer = o.id_customer
JOIN ps_currency cu ON cu.id_currency = o.id_currency
LEFT JOIN ps_order_carrier oc ON oc.id_order = o.id_order
WHERE o.current_state IN (2, 3, 13)
