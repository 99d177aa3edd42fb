/**
 * The pictures of one part of a 本校题 (题干, an option, 解析) in the plain-text editor: shown as
 * thumbnails after the text, added with 添加图片 (PNG, JPEG or WebP up to 2 MB, checked here and again by
 * the server) and removed one by one. In the question's rich text they follow the part's text as the
 * bank's usual image tags, so editing the question again keeps them.
 */
import { IconImage } from '@douyinfe/semi-icons';
import { Button, Toast } from '@douyinfe/semi-ui-19';
import { useRef, useState, type ChangeEvent } from 'react';
import { QUESTION_IMAGE_MAX_BYTES, QUESTION_IMAGE_MESSAGES, QUESTION_IMAGE_TYPES } from '../../shared/contract/question-images';
import { useImageSrc } from '../../shared/ui/question-images';
import { uploadQuestionImage } from './papers-api';
import { usePapersServices } from './papers-services';
import styles from './question-pictures.module.css';

const IMAGE_TAG = /<img\b[^>]*?\bsrc\s*=\s*("([^"]*)"|'([^']*)')[^>]*>/gi;
const unescapeAttribute = (value: string) =>
  value
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');
const escapeAttribute = (value: string) =>
  value.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** The addresses of a part's pictures, in order. */
export function picturesOf(rich: string): string[] {
  return [...rich.matchAll(IMAGE_TAG)].map((match) => unescapeAttribute(match[2] ?? match[3] ?? ''));
}

/** A part's rich text followed by its pictures (each on its own line, or inline for an option). */
export function withPictures(rich: string, pictures: readonly string[], inline = false): string {
  const tags = pictures.map((src) => `<img src="${escapeAttribute(src)}">`);
  if (tags.length === 0) return rich;
  return inline ? [rich, ...tags].filter(Boolean).join(' ') : `${rich}${tags.map((tag) => `<p>${tag}</p>`).join('')}`;
}

function Thumbnail({ src, label, onRemove }: { src: string; label: string; onRemove: () => void }) {
  const shown = useImageSrc(src);
  return (
    <figure className={styles.thumbnail}>
      {shown ? <img src={shown} alt={label} /> : <span className={styles.placeholder}>图片加载中…</span>}
      <Button size="small" theme="borderless" type="danger" aria-label={`删除${label}`} onClick={onRemove}>
        删除
      </Button>
    </figure>
  );
}

export function QuestionPictures({
  label,
  pictures,
  onChange,
  onUploaded,
}: {
  /** The part, as the buttons name it: 题干, 选项 A, 解析. */
  label: string;
  pictures: readonly string[];
  onChange: (pictures: string[]) => void;
  /** Each picture stored by the server from here (the editor removes those the question does not keep). */
  onUploaded: (src: string) => void;
}) {
  const { http } = usePapersServices();
  const input = useRef<HTMLInputElement>(null);
  const [busy, setBusy] = useState(false);

  const pick = async (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.target.files?.[0];
    event.target.value = '';
    if (!file) return;
    if (!(QUESTION_IMAGE_TYPES as readonly string[]).includes(file.type))
      return void Toast.error(QUESTION_IMAGE_MESSAGES.badType);
    if (file.size > QUESTION_IMAGE_MAX_BYTES) return void Toast.error(QUESTION_IMAGE_MESSAGES.tooLarge);
    setBusy(true);
    try {
      const { src } = await uploadQuestionImage(http, file);
      onUploaded(src);
      onChange([...pictures, src]);
    } catch {
      // The server's message has been shown.
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className={styles.pictures} role="group" aria-label={`${label}图片`}>
      {pictures.map((src, i) => (
        <Thumbnail
          key={`${src}-${i}`}
          src={src}
          label={`${label}图片 ${i + 1}`}
          onRemove={() => onChange(pictures.filter((_, j) => j !== i))}
        />
      ))}
      <input
        ref={input}
        type="file"
        hidden
        accept={QUESTION_IMAGE_TYPES.join(',')}
        aria-label={`选择${label}图片`}
        onChange={(event) => void pick(event)}
      />
      <Button
        size="small"
        icon={<IconImage />}
        loading={busy}
        onClick={() => input.current?.click()}
        aria-label={`${label}添加图片`}
      >
        添加图片
      </Button>
    </div>
  );
}
