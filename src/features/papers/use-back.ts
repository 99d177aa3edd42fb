/** Back from a print page: to the previous page, or to the homework list when the page was opened directly. */
import { useLocation, useNavigate } from 'react-router-dom';

export function useBack(): () => void {
  const navigate = useNavigate();
  const location = useLocation();
  return () => void (location.key === 'default' ? navigate('/paperlist') : navigate(-1));
}
