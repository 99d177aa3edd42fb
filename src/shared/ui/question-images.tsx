/**
 * Pictures of 本校题 (question-images contract) on screen and on paper. They are served only to members of
 * the school, behind the session's bearer header, which a plain <img src> cannot carry: the entry hands a
 * loader (the HTTP client's getBlob) down through QuestionImagesProvider, and each picture is fetched once
 * and shown through an object URL kept for the page's life (pictures never change; a new loader, after
 * another login, starts a new cache). Owns that cache only; the addresses come from the question's text.
 */
import { createContext, useContext, useEffect, useState, type ReactNode } from 'react';
import { questionImageOf } from '../contract/question-images';

export type LoadQuestionImage = (src: string) => Promise<Blob>;

const LoaderContext = createContext<LoadQuestionImage | null>(null);

export function QuestionImagesProvider({ load, children }: { load: LoadQuestionImage; children: ReactNode }) {
  return <LoaderContext.Provider value={load}>{children}</LoaderContext.Provider>;
}

export const useQuestionImageLoader = () => useContext(LoaderContext);

/** Whether an image address is one of these pictures (fetched with the session, not by the image tag). */
export const isQuestionImage = (src: string) => questionImageOf(src) !== null;

const caches = new WeakMap<LoadQuestionImage, Map<string, Promise<string>>>();

/** The object URL of a picture, fetched once per loader; a failed fetch is tried again next time. */
export function questionImageUrl(load: LoadQuestionImage, src: string): Promise<string> {
  let cache = caches.get(load);
  if (!cache) caches.set(load, (cache = new Map()));
  let url = cache.get(src);
  if (!url) {
    url = load(src).then((blob) => URL.createObjectURL(blob));
    url.catch(() => cache.delete(src));
    cache.set(src, url);
  }
  return url;
}

/** The address to put in an image tag: the object URL of one of these pictures once fetched, any other as it is. */
export function useImageSrc(src: string): string | undefined {
  const load = useQuestionImageLoader();
  const protectedImage = isQuestionImage(src);
  const [loaded, setLoaded] = useState<{ src: string; url: string } | null>(null);
  useEffect(() => {
    if (!protectedImage || !load) return;
    let live = true;
    questionImageUrl(load, src).then(
      (url) => live && setLoaded({ src, url }),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [load, src, protectedImage]);
  if (!protectedImage) return src;
  return loaded?.src === src ? loaded.url : undefined;
}

/**
 * Fills in the pictures of rendered rich text: each <img data-question-image="…"> under `root` gets the
 * object URL of its picture. Answers a cleanup that stops filling (the text changed or left the page).
 */
export function fillQuestionImages(root: HTMLElement, load: LoadQuestionImage | null): () => void {
  let live = true;
  for (const image of root.querySelectorAll<HTMLImageElement>('img[data-question-image]')) {
    const src = image.dataset.questionImage!;
    if (!load) continue;
    questionImageUrl(load, src).then(
      (url) => {
        if (live) image.src = url;
      },
      () => undefined,
    );
  }
  return () => {
    live = false;
  };
}
