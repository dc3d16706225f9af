import type { FilePart, ImagePart, TextPart, UserContentPart } from '../../canonical/chat';
import {
  invalidField,
  isJsonObject,
  readRequiredString,
  readString,
  type JsonObject,
} from './responses-fields';

/**
 * Content parts of a Responses input message (https://platform.openai.com/docs/api-reference/responses/create
 * → input → content) as canonical parts. This gateway has no files API, so a file id is refused with what to
 * send instead.
 */

const noFileIds =
  'file ids are not supported: this gateway has no files API. Send the content itself instead';

function readText(part: JsonObject, param: string): TextPart {
  const text = part.text;
  if (typeof text !== 'string') throw invalidField(`${param}.text`, `${param}.text must be a string`);
  return { type: 'text', text };
}

function readImage(part: JsonObject, param: string): ImagePart {
  if (readString(part, 'file_id', `${param}.file_id`) !== undefined) {
    throw invalidField(`${param}.file_id`, `Image ${noFileIds} (image_url: an https URL or a data: URL)`);
  }
  const url = readRequiredString(part, 'image_url', `${param}.image_url`);
  const detail = readString(part, 'detail', `${param}.detail`);
  // 'original' (full resolution) has no chat equivalent; 'high' is the closest.
  const chatDetail = detail === 'original' ? 'high' : detail;
  if (chatDetail !== undefined && chatDetail !== 'auto' && chatDetail !== 'low' && chatDetail !== 'high') {
    throw invalidField(`${param}.detail`, `${param}.detail must be one of auto, low, high, original`);
  }
  return { type: 'image_url', image_url: chatDetail ? { url, detail: chatDetail } : { url } };
}

function readFile(part: JsonObject, param: string): FilePart {
  if (readString(part, 'file_id', `${param}.file_id`) !== undefined) {
    throw invalidField(`${param}.file_id`, `File ${noFileIds} (file_data: a base64 data: URL)`);
  }
  if (readString(part, 'file_url', `${param}.file_url`) !== undefined) {
    throw invalidField(
      `${param}.file_url`,
      'file_url is not supported by this gateway: send the file as file_data (a base64 data: URL)',
    );
  }
  const fileData = readRequiredString(part, 'file_data', `${param}.file_data`);
  const filename = readString(part, 'filename', `${param}.filename`);
  return {
    type: 'file',
    file: filename === undefined ? { file_data: fileData } : { file_data: fileData, filename },
  };
}

function readAudio(part: JsonObject, param: string): UserContentPart {
  const audio = part.input_audio;
  if (!isJsonObject(audio) || typeof audio.data !== 'string' || typeof audio.format !== 'string') {
    throw invalidField(`${param}.input_audio`, `${param}.input_audio must be {data, format}`);
  }
  return { type: 'input_audio', input_audio: { data: audio.data, format: audio.format } };
}

/** One part of a user message; output_text is taken as text too (clients replay earlier outputs as input). */
export function convertInputPart(part: unknown, param: string): UserContentPart {
  if (!isJsonObject(part)) throw invalidField(param, `${param} must be an object`);
  switch (part.type) {
    case 'input_text':
    case 'output_text':
      return readText(part, param);
    case 'input_image':
      return readImage(part, param);
    case 'input_file':
      return readFile(part, param);
    case 'input_audio':
      return readAudio(part, param);
    default:
      throw invalidField(
        `${param}.type`,
        `${param}.type must be one of input_text, input_image, input_file, input_audio`,
      );
  }
}

/** The parts of a function_call_output's output list: text and images, as a canonical tool result takes. */
export function convertToolOutputPart(part: unknown, param: string): TextPart | ImagePart {
  const converted = convertInputPart(part, param);
  if (converted.type === 'text' || converted.type === 'image_url') return converted;
  throw invalidField(`${param}.type`, `${param}: a function call output may hold only text and images`);
}

/** The text of a system or developer message: only text parts make sense there. */
export function convertInstructionPart(part: unknown, param: string): TextPart {
  const converted = convertInputPart(part, param);
  if (converted.type === 'text') return converted;
  throw invalidField(`${param}.type`, `${param}: system and developer messages may hold only text`);
}
