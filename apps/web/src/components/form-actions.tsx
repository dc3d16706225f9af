import { Button, Group } from '@mantine/core';
import { Link } from 'react-router';

interface FormActionsProps {
  /** the list the back button returns to, without saving */
  backTo: string;
  backLabel: string;
  submitLabel: string;
  isSaving: boolean;
}

/** An edit form's last row: back to the list without saving, then save (busy while the request runs). */
export function FormActions({ backTo, backLabel, submitLabel, isSaving }: FormActionsProps) {
  return (
    <Group justify="flex-end" gap="sm">
      <Button variant="default" component={Link} to={backTo}>
        {backLabel}
      </Button>
      <Button type="submit" loading={isSaving}>
        {submitLabel}
      </Button>
    </Group>
  );
}
