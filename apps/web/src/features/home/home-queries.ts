import { queryOptions } from '@tanstack/react-query';
import { api } from '../../api/client';

/** Operator-written texts (options HomePageContent, About, Notice): Markdown, HTML or a URL. */
const contentQuery = (key: string, path: string) =>
  queryOptions({ queryKey: ['content', key], queryFn: () => api.get<string>(path), staleTime: 60_000 });

export const homePageContentQueryOptions = () => contentQuery('home', '/api/home_page_content');
export const aboutQueryOptions = () => contentQuery('about', '/api/about');
export const noticeQueryOptions = () => contentQuery('notice', '/api/notice');
