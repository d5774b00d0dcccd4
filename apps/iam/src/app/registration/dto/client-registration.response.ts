/** RFC 7591 §3.2.1 client information response (201). No secret: every client registered here is public. */
export interface ClientRegistrationResponse {
  client_id: string;
  client_id_issued_at: number;
  client_name: string;
  redirect_uris: string[];
  grant_types: string[];
  response_types: ['code'];
  token_endpoint_auth_method: 'none';
  scope: string;
}
