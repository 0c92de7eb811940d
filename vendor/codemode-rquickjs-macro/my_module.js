export function foo(){
  return 1 + 1
}
