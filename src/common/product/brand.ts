// The product's name and how to reach the company behind it.
// Part of the product numbers of the specification, written once (src/common/product/, one file
// a topic). Imported by the browser and the server, so nothing here may touch Node or DOM APIs.

export const brand = {
  name: 'Likeness',
} as const;

export const contact = {
  infoEmail: 'info@likeness.example',
  company: 'Likeness Oy',
  companyCountry: 'Finland',
  companyLine: 'Likeness Oy, a company registered in Finland',
} as const;
