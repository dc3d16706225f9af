import { queryOptions } from '@tanstack/react-query';
import type {
  CreateUserRequest,
  ManageUserAction,
  ManageUserResult,
  UpdateUserRequest,
  User,
  UserListOrder,
} from '@gatehouse/shared';
import { api } from '../../api/client';

export const userKeys = {
  all: ['users'] as const,
  self: () => [...userKeys.all, 'self'] as const,
  list: (order: UserListOrder) => [...userKeys.all, 'list', { order }] as const,
  detail: (id: number) => [...userKeys.all, 'detail', id] as const,
  groups: () => ['groups'] as const,
};

export const selfQueryOptions = () =>
  queryOptions({ queryKey: userKeys.self(), queryFn: () => api.get<User>('/api/user/self') });

export interface SelfUpdate {
  display_name: string;
  /** Blank keeps the current password. */
  password: string;
}

export const updateSelf = (update: SelfUpdate) => api.put<null>('/api/user/self', update);

export const listUsers = (page: number, order: UserListOrder, signal?: AbortSignal) =>
  api.get<User[]>('/api/user/', { params: { p: page, order }, signal });

export const searchUsers = (keyword: string, signal?: AbortSignal) =>
  api.get<User[]>('/api/user/search', { params: { keyword }, signal });

export const userQueryOptions = (id: number) =>
  queryOptions({ queryKey: userKeys.detail(id), queryFn: () => api.get<User>(`/api/user/${id}`) });

export const groupsQueryOptions = () =>
  queryOptions({ queryKey: userKeys.groups(), queryFn: () => api.get<string[]>('/api/group/') });

export const createUser = (user: CreateUserRequest) => api.post<User>('/api/user/', user);

export const updateUser = (user: UpdateUserRequest) => api.put<User>('/api/user/', user);

export const manageUser = (username: string, action: ManageUserAction) =>
  api.post<ManageUserResult>('/api/user/manage', { username, action });
