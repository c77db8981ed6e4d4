/**
 * Measures a focus indicator's contrast the way WCAG 2.2 SC 1.4.11 (non-text contrast) asks: the colour of the
 * ring a focused control draws (its computed outline, or its box-shadow when it has no outline) against the colour
 * behind that ring, with the WCAG 2.x relative-luminance contrast ratio (colorjs.io's "WCAG21").
 */
import Color from 'colorjs.io';
import type { Locator } from 'playwright-core';

/** What the page reports of one focused control (computed CSS colour strings, as the browser serialises them). */
interface RingColours {
  /** Whether the control matches `:focus-visible` (a ring measured without it would be the unfocused style). */
  readonly focusVisible: boolean;
  /** The ring's colour: outline colour, or the first box-shadow colour when there is no outline. */
  readonly ring: string | null;
  /** Background colours from the nearest layer behind the ring outwards, up to the first opaque one. */
  readonly layers: string[];
}

/** One measured focus ring. */
export interface FocusRing {
  /** The ring's colour (composited over the background when translucent), as `#rrggbb`. */
  readonly ring: string;
  /** The colour behind the ring (every translucent layer composited), as `#rrggbb`. */
  readonly background: string;
  /** WCAG 2.x contrast ratio of the two, 1 to 21. */
  readonly ratio: number;
}

/**
 * Focuses `control` (Playwright's `focus()`; the control must be keyboard-focusable) and measures its focus ring.
 * The background is the one the ring is painted over: for an outline drawn outside the control (`outline-offset`
 * ≥ 0) the backgrounds of its ancestors, crossing shadow roots, else the control's own; a page whose root paints
 * nothing shows the canvas colour of its `color-scheme`. Background images and ancestors' opacity are not counted.
 * @throws Error when the control is not `:focus-visible` once focused, or shows no ring at all.
 */
export async function measureFocusRing(control: Locator): Promise<FocusRing> {
  await control.focus();
  const colours = await control.evaluate((element): RingColours => {
    const style = getComputedStyle(element);
    const outline = style.outlineStyle !== 'none' && Number.parseFloat(style.outlineWidth) > 0;
    // A box-shadow ring: its first colour (Chromium serialises the colour first in each shadow).
    const shadow =
      style.boxShadow === 'none' ? null : (/^(rgba?\([^)]*\)|color\([^)]*\)|#\w+)/.exec(style.boxShadow)?.[1] ?? null);
    const ring = outline ? style.outlineColor : shadow;
    const layers: string[] = [];
    let node: Element | null = outline && Number.parseFloat(style.outlineOffset) < 0 ? element : parentOf(element);
    for (; node; node = parentOf(node)) {
      const background = getComputedStyle(node).backgroundColor;
      layers.push(background);
      if (/^rgb\(/.test(background)) return { focusVisible: element.matches(':focus-visible'), ring, layers };
    }
    // Nothing opaque: the canvas shows, in the root's colour scheme.
    const probe = document.createElement('div');
    probe.style.cssText = `background: Canvas; color-scheme: ${getComputedStyle(document.documentElement).colorScheme}`;
    document.documentElement.append(probe);
    layers.push(getComputedStyle(probe).backgroundColor);
    probe.remove();
    return { focusVisible: element.matches(':focus-visible'), ring, layers };

    /** The parent in the flat tree a ring paints over: the parent element, or a shadow root's host. */
    function parentOf(child: Element): Element | null {
      return child.parentElement ?? ((child.getRootNode() as ShadowRoot).host || null);
    }
  });
  if (!colours.focusVisible) throw new Error('the control is not :focus-visible once focused');
  if (!colours.ring) throw new Error('the focused control draws no outline and no box-shadow');
  const background = colours.layers.reduceRight<Color>((under, layer) => over(new Color(layer), under), white());
  const ring = over(new Color(colours.ring), background);
  return {
    ring: hex(ring),
    background: hex(background),
    ratio: Math.round(ring.contrast(background, 'WCAG21') * 100) / 100,
  };
}

/**
 * The marker of the active result row (the combobox keeps focus in the search box and marks the row that
 * `aria-activedescendant` names): the row's inline-start border colour against the row's own background, which
 * that border is painted over (the active row's tint composited over what is behind the row).
 * @throws Error when the row has no visible inline-start border.
 */
export async function measureRowMarker(row: Locator): Promise<FocusRing> {
  const colours = await row.evaluate((element) => {
    const style = getComputedStyle(element);
    const marker = Number.parseFloat(style.borderInlineStartWidth) > 0 ? style.borderInlineStartColor : null;
    return { marker, selected: element.getAttribute('aria-selected') };
  });
  if (colours.selected !== 'true') throw new Error('the row is not the active one (aria-selected)');
  if (!colours.marker) throw new Error('the active row shows no inline-start border');
  const background = await backgroundAt(row);
  const ring = over(new Color(colours.marker), background);
  return {
    ring: hex(ring),
    background: hex(background),
    ratio: Math.round(ring.contrast(background, 'WCAG21') * 100) / 100,
  };
}

/** The colour a visitor sees at an element: its background composited over its ancestors' (opaque). */
export async function backgroundAt(element: Locator): Promise<Color> {
  const layers = await element.evaluate((start) => {
    const found: string[] = [];
    for (let node: Element | null = start; node; ) {
      const background = getComputedStyle(node).backgroundColor;
      found.push(background);
      if (/^rgb\(/.test(background)) break;
      node = node.parentElement ?? ((node.getRootNode() as ShadowRoot).host || null);
    }
    return found;
  });
  return layers.reduceRight<Color>((under, layer) => over(new Color(layer), under), white());
}

/** Opaque white: what is under the last layer when nothing opaque was found (a light canvas). */
function white(): Color {
  return new Color('srgb', [1, 1, 1]);
}

/** `top` composited over the opaque `under` (source-over, in gamma-encoded sRGB as browsers blend). */
function over(top: Color, under: Color): Color {
  const alpha = top.alpha.valueOf();
  const a = top.to('srgb').coords;
  const b = under.to('srgb').coords;
  return new Color(
    'srgb',
    [0, 1, 2].map((i) => (a[i] ?? 0) * alpha + (b[i] ?? 0) * (1 - alpha)) as [number, number, number],
  );
}

/** A colour as `#rrggbb` (for messages). */
export function hex(colour: Color): string {
  return colour.to('srgb').toString({ format: 'hex' });
}
