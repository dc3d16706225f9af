import { Stack, Text } from '@mantine/core';
import { useTranslation } from 'react-i18next';

/** The audio and image ratios of a model, as GET /api/pricing and GET /api/pricing/built-in answer them. */
export interface MediaRatios {
  audio_input_ratio: number;
  image_input_ratio: number;
  audio_output_ratio: number;
  image_output_ratio: number;
}

export const mediaKinds = ['audioInput', 'imageInput', 'audioOutput', 'imageOutput'] as const;
export type MediaKind = (typeof mediaKinds)[number];

const ratioField: Record<MediaKind, keyof MediaRatios> = {
  audioInput: 'audio_input_ratio',
  imageInput: 'image_input_ratio',
  audioOutput: 'audio_output_ratio',
  imageOutput: 'image_output_ratio',
};

export interface MediaPrice {
  kind: MediaKind;
  ratio: number;
  /** per million audio or image tokens: the input or output price × the ratio */
  price: number;
}

/**
 * The audio and image prices that differ from the text ones (ratio ≠ 1): most models price every token alike,
 * so the list is usually empty. Input kinds are relative to the input price, output kinds to the output price.
 */
export function listMediaPrices(ratios: MediaRatios, inputPrice: number, outputPrice: number): MediaPrice[] {
  return mediaKinds
    .map((kind) => {
      const ratio = ratios[ratioField[kind]];
      const base = kind.endsWith('Input') ? inputPrice : outputPrice;
      return { kind, ratio, price: base * ratio };
    })
    .filter((entry) => entry.ratio !== 1);
}

const formatRatio = (value: number) => String(Math.round(value * 1e6) / 1e6);

/**
 * "Audio in $40.00 (16×)", one line per kind; a dash when every token is priced as text. Struck: the built-in
 * prices an option replaced, dimmed and struck through.
 */
export function MediaPriceList({
  prices,
  format,
  isStruck = false,
}: {
  prices: MediaPrice[];
  format: (price: number) => string;
  isStruck?: boolean;
}) {
  const { t } = useTranslation();
  if (prices.length === 0)
    return (
      <Text size={isStruck ? 'xs' : 'sm'} c={isStruck ? 'dimmed' : undefined}>
        —
      </Text>
    );
  return (
    <Stack gap={0}>
      {prices.map(({ kind, ratio, price }) => (
        <Text
          key={kind}
          size="xs"
          c={isStruck ? 'dimmed' : undefined}
          td={isStruck ? 'line-through' : undefined}
          style={{ whiteSpace: 'nowrap' }}
        >
          {t(`pricing.media.${kind}`)} {format(price)}{' '}
          <Text span size="xs" c="dimmed">
            ({formatRatio(ratio)}×)
          </Text>
        </Text>
      ))}
    </Stack>
  );
}
