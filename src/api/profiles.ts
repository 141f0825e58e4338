/**
 * The profiles some formats return: `branding`, and `product` / `menu` (added
 * by the service after the reference's baseline). Shapes as the service sends
 * them (and as the official client declares them); not checked at run time,
 * and open to fields the service adds (`[key: string]: unknown` where it may).
 */

/** A price in a product or menu profile. */
export interface ProfilePrice {
  amount: number;
  /** ISO 4217 currency. */
  currency?: string;
  /** The price as the page shows it. */
  formatted?: string;
}

/** Whether an item can be had. */
export interface ProfileAvailability {
  /** In stock / orderable. */
  inStock: boolean;
  /** The page's wording. */
  text?: string;
}

/** An image of a product or menu item. */
export interface ProfileImage {
  url: string;
  /** Its alt text. */
  alt?: string;
}

/** One variant of a product (size, colour, ...). */
export interface ProductVariant {
  /** The site's id. */
  id?: string;
  /** Stock-keeping unit. */
  sku?: string;
  /** The variant's name. */
  title?: string;
  /** Its option values (`{ size: "M" }`). */
  values?: Record<string, unknown>;
  price?: ProfilePrice;
  /** The price before a sale. */
  sale?: { originalPrice: ProfilePrice };
  availability: ProfileAvailability;
  images?: ProfileImage[];
}

/** Format `product`: the product a page shows. */
export interface ProductProfile {
  /** The product's name. */
  title: string;
  brand?: string;
  category?: string;
  url: string;
  description?: string;
  /** Its variants (at least one). */
  variants: ProductVariant[];
}

/** One item of a menu. */
export interface MenuItem extends Pick<ProductVariant, "price" | "availability"> {
  id: string;
  name: string;
  description?: string;
  images: ProfileImage[];
  /** Dietary labels (`vegan`, ...). */
  dietary: string[];
  calories?: number;
  /** Option groups (sizes, extras), as the page lists them. */
  optionGroups: unknown[];
  /** The merchant's ids of the item. */
  identifiers: { merchantItemId?: string };
  /** The item's own page. */
  url?: string;
  /** The page it was read from. */
  sourceUrl: string;
}

/** Format `menu`: a restaurant's (or shop's) menu. */
export interface MenuProfile {
  /** Whether the page is a menu at all. */
  isMenu: boolean;
  /** How sure the service is, 0 to 1. */
  confidence: number;
  /** Who sells. */
  merchant: { name: string; type?: string | null; location?: unknown };
  /** ISO 4217 currency of the prices. */
  currency?: string | null;
  /** Its sections, each with items. */
  sections: { id: string; name: string; description?: string; items: MenuItem[] }[];
  /** The page it was read from. */
  sourceUrl: string;
}

/** Format `branding`: the site's brand (colours, fonts, logo, tone). Groups are open to fields the service adds. */
export interface BrandingProfile {
  colorScheme?: "light" | "dark";
  /** The brand's name. */
  brandName?: string;
  /** The logo's URL. */
  logo?: string | null;
  /** Fonts in use. */
  fonts?: { family: string; [key: string]: unknown }[];
  /** Colours (CSS values): `primary`, `secondary`, `accent`, `background`, `textPrimary`, `link`, ... */
  colors?: { primary?: string; secondary?: string; accent?: string; background?: string; textPrimary?: string; textSecondary?: string; link?: string; [key: string]: string | undefined };
  typography?: {
    fontFamilies?: Record<string, string | undefined>;
    fontStacks?: Record<string, string[] | undefined>;
    fontSizes?: Record<string, string | undefined>;
    lineHeights?: Record<string, number | undefined>;
    fontWeights?: Record<string, number | undefined>;
  };
  spacing?: { baseUnit?: number; borderRadius?: string; [key: string]: unknown };
  /** Components (`buttonPrimary`, `buttonSecondary`, `input`), each a set of CSS values. */
  components?: Record<string, Record<string, string | undefined> | undefined>;
  /** Images: `logo`, `favicon`, `ogImage`. */
  images?: Record<string, string | null | undefined>;
  /** Tone of voice. */
  tone?: Record<string, string | undefined>;
  personality?: { tone: string; energy: "low" | "medium" | "high"; targetAudience: string };
  /** Other fields the service sends. */
  [key: string]: unknown;
}
